"""``dixit replay``: a saved game prints round by round; a tampered one is rejected."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from dixit.cli._common import events_to_jsonl, play_bot_game, seat_names
from dixit.engine import rules_for

from .conftest import Runner


@pytest.fixture(scope="module")
def saved_lines() -> list[dict[str, Any]]:
    _, events = play_bot_game(rules_for("classic"), seat_names(4), seed=11)
    return [json.loads(line) for line in events_to_jsonl(events).splitlines()]


def write(tmp_path: Path, lines: list[dict[str, Any]], name: str = "game.jsonl") -> str:
    path = tmp_path / name
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return str(path)


def first_index(lines: list[dict[str, Any]], type_: str, after: int = 0) -> int:
    return next(i for i, line in enumerate(lines) if i >= after and line["type"] == type_)


def test_saved_game_from_simulate_replays_round_by_round(dixit: Runner, tmp_path: Path) -> None:
    assert dixit("simulate", "--games", "1", "--seed", "5", "--save", str(tmp_path)).status == 0
    simulated = json.loads(dixit("simulate", "--games", "1", "--seed", "5", "--json").out)
    result = dixit("replay", str(tmp_path / "game-5.jsonl"))
    assert result.status == 0, result.err
    out = result.out
    for n in range(1, 12):
        assert f"Round {n}: storyteller p{(n - 1) % 5 + 1}, clue " in out
    assert "Round 12" not in out
    assert out.count("  table:") == 11 and out.count("  votes:") == 11
    assert out.count("<- storyteller's card") == 11
    assert out.count(" -> ") == 11 * 4  # four votes a round
    scores = simulated["scores"]
    assert "Final scores: " + ", ".join(f"{p} {s}" for p, s in scores.items()) in out
    assert f"Winner(s): {', '.join(simulated['winners'])}" in out
    last_totals = [line for line in out.splitlines() if line.startswith("  totals: ")][-1]
    assert last_totals == "  totals: " + ", ".join(f"{p} {s}" for p, s in scores.items())


def test_json_array_and_stdin_and_check(
    dixit: Runner, tmp_path: Path, saved_lines: list[dict[str, Any]]
) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(saved_lines, indent=2))
    as_array = dixit("replay", str(path))
    assert as_array.status == 0, as_array.err
    from_stdin = dixit("replay", "-", stdin=events_text(saved_lines))
    assert from_stdin.out == as_array.out
    check = dixit("replay", "--check", str(path))
    assert check.out.startswith(f"valid: {len(saved_lines)} events, 15 rounds, game over")


def events_text(lines: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(line) + "\n" for line in lines)


def test_an_unfinished_game_is_a_valid_log(
    dixit: Runner, tmp_path: Path, saved_lines: list[dict[str, Any]]
) -> None:
    cut = first_index(saved_lines, "RoundStarted", after=first_index(saved_lines, "RoundScored"))
    result = dixit("replay", write(tmp_path, saved_lines[: cut + 1]))
    assert result.status == 0, result.err
    assert "Game not finished (round 2, clue phase)" in result.out
    assert "Scores so far" in result.out


def tampered(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    copy: list[dict[str, Any]] = json.loads(json.dumps(lines))
    return copy


def expect_rejected(dixit: Runner, path: str, code: str, index: int | None) -> None:
    result = dixit("replay", path)
    assert result.status == 2
    assert result.out == ""
    error = result.error()
    assert error["code"] == code, error
    assert error["index"] == index, error
    assert error["message"]


def test_a_changed_vote_is_caught_at_the_reveal(
    dixit: Runner, tmp_path: Path, saved_lines: list[dict[str, Any]]
) -> None:
    lines = tampered(saved_lines)
    at = first_index(lines, "VoteCast")
    table = lines[first_index(lines, "TableLaid")]["cards"]
    voter = lines[at]["player"]
    own = next(line["cards"] for line in lines if line.get("player") == voter and "cards" in line)
    # Another legal choice: not the recorded vote, not the voter's own card.
    lines[at]["card"] = next(c for c in table if c != lines[at]["card"] and c not in own)
    expect_rejected(
        dixit, write(tmp_path, lines), "event/invalid", first_index(lines, "RoundScored")
    )


def test_a_vote_for_ones_own_card_is_illegal(
    dixit: Runner, tmp_path: Path, saved_lines: list[dict[str, Any]]
) -> None:
    lines = tampered(saved_lines)
    at = first_index(lines, "VoteCast")
    voter = lines[at]["player"]
    submitted = next(i for i, line in enumerate(lines) if line["type"] == "CardsSubmitted"
                     and line["player"] == voter)  # fmt: skip
    lines[at]["card"] = lines[submitted]["cards"][0]
    expect_rejected(dixit, write(tmp_path, lines), "action/cannot_vote_own_card", at)


def test_a_changed_score_is_caught(
    dixit: Runner, tmp_path: Path, saved_lines: list[dict[str, Any]]
) -> None:
    lines = tampered(saved_lines)
    at = first_index(lines, "RoundScored", after=40)
    lines[at]["awards"][0]["points"] += 1
    expect_rejected(dixit, write(tmp_path, lines), "event/invalid", at)


def test_changed_winners_are_caught(
    dixit: Runner, tmp_path: Path, saved_lines: list[dict[str, Any]]
) -> None:
    lines = tampered(saved_lines)
    losers = [p for p in lines[0]["players"] if p not in lines[-1]["winners"]]
    lines[-1]["winners"] = losers[:1]
    expect_rejected(dixit, write(tmp_path, lines), "event/invalid", len(lines) - 1)


def test_a_table_that_is_not_the_submitted_cards_is_caught(
    dixit: Runner, tmp_path: Path, saved_lines: list[dict[str, Any]]
) -> None:
    lines = tampered(saved_lines)
    at = first_index(lines, "TableLaid")
    lines[at]["cards"][0] = "c99"
    expect_rejected(dixit, write(tmp_path, lines), "event/invalid", at)


def test_a_reordered_table_must_match_the_reveal(
    dixit: Runner, tmp_path: Path, saved_lines: list[dict[str, Any]]
) -> None:
    lines = tampered(saved_lines)
    at = first_index(lines, "TableLaid")
    lines[at]["cards"].reverse()  # still a shuffle, but the reveal recorded another order
    expect_rejected(
        dixit, write(tmp_path, lines), "event/invalid", first_index(lines, "RoundScored")
    )


def test_draws_must_come_from_the_top_of_the_pile(
    dixit: Runner, tmp_path: Path, saved_lines: list[dict[str, Any]]
) -> None:
    lines = tampered(saved_lines)
    at = first_index(lines, "CardsDrawn", after=first_index(lines, "RoundScored"))
    draw = lines[at]["draws"][0][1]
    draw[0] = lines[0]["pile"][-1]  # the bottom card instead of the top one
    expect_rejected(dixit, write(tmp_path, lines), "event/invalid", at)


def test_the_deal_must_follow_the_pile(
    dixit: Runner, tmp_path: Path, saved_lines: list[dict[str, Any]]
) -> None:
    lines = tampered(saved_lines)
    lines[1]["draws"][0], lines[1]["draws"][1] = lines[1]["draws"][1], lines[1]["draws"][0]
    expect_rejected(dixit, write(tmp_path, lines), "event/invalid", 1)


def test_structural_damage(
    dixit: Runner, tmp_path: Path, saved_lines: list[dict[str, Any]]
) -> None:
    lines = tampered(saved_lines)
    expect_rejected(dixit, write(tmp_path, lines[1:], "a"), "event/invalid", 0)
    expect_rejected(dixit, write(tmp_path, [*lines, lines[-2]], "b"), "event/invalid", len(lines))
    dropped = first_index(lines, "VoteCast")
    expect_rejected(
        dixit,
        write(tmp_path, lines[:dropped] + lines[dropped + 1 :], "c"),
        "event/invalid",
        dropped + 2,  # the remaining votes are cast, then the log's RoundScored comes too early
    )
    unknown = tampered(lines)
    unknown[5]["type"] = "Teleported"
    expect_rejected(dixit, write(tmp_path, unknown, "d"), "command/unknown_type", 5)
    missing_field = tampered(lines)
    del missing_field[3]["clue"]
    expect_rejected(dixit, write(tmp_path, missing_field, "e"), "command/malformed", 3)
    broken = tmp_path / "f.jsonl"
    broken.write_text(events_text(lines[:3]) + "{not json\n")
    expect_rejected(dixit, str(broken), "command/malformed", 3)
    empty = tmp_path / "g.jsonl"
    empty.write_text("\n")
    expect_rejected(dixit, str(empty), "game/not_started", None)


def test_a_missing_file_is_an_error(dixit: Runner, tmp_path: Path) -> None:
    result = dixit("replay", str(tmp_path / "nope.jsonl"))
    assert result.status == 2
    assert result.error()["code"] == "io/unreadable"


def test_a_game_ended_early_replays(dixit: Runner, tmp_path: Path) -> None:
    import random as _random

    from dixit.engine import EndGame, StartGame, execute, rules_for
    from dixit.engine.serialize import event_to_json

    rng = _random.Random(5)
    deck = tuple(f"c{i:02}" for i in range(84))
    state, events = execute(None, StartGame(("a", "b", "c", "d"), deck, rules_for("classic")), rng)
    state, more = execute(state, EndGame(), rng)
    log = tmp_path / "ended.jsonl"
    log.write_text("".join(json.dumps(event_to_json(e)) + "\n" for e in [*events, *more]))
    result = dixit("replay", str(log), "--check")
    assert result.status == 0, result.err
    assert "ended_by_host" in result.out


@pytest.mark.parametrize("mode", ["standard", "party", "teams"])
def test_odyssey_games_replay_with_both_votes_the_void_and_teams(
    dixit: Runner, tmp_path: Path, mode: str
) -> None:
    players = {"standard": "8", "party": "6", "teams": "8"}[mode]
    args = ("--edition", "odyssey", "--mode", mode, "--players", players, "--games", "1")
    assert dixit("simulate", *args, "--save", str(tmp_path)).status == 0
    result = dixit("replay", str(tmp_path / "game-0.jsonl"), "--check")
    assert result.status == 0, result.err
    shown = dixit("replay", str(tmp_path / "game-0.jsonl")).out
    log = [json.loads(line) for line in (tmp_path / "game-0.jsonl").read_text().splitlines()]
    scored = [e for e in log if e["type"] == "RoundScored"]
    # Every vote is a line, a second vote too.
    assert shown.count(" -> ") == sum(len(e["votes"]) for e in scored)
    assert (", party mode" in shown) == (mode == "party")
    assert shown.count("voided by the storyteller") == (len(scored) if mode == "party" else 0)
    if mode == "standard":
        assert any(len({v for v, _ in e["votes"]}) < len(e["votes"]) for e in scored)
