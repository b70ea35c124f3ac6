"""``dixit simulate``: JSON lines, the classic round counts, reproducibility, saved games."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from dixit.cli.simulate import ProgressBar

from .conftest import Runner

KEYS = {"seed", "rounds", "score_history", "scores", "winners", "outcomes"}


def lines_of(out: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.splitlines()]


@pytest.mark.parametrize(("players", "rounds"), [(3, 13), (4, 15), (5, 11), (6, 8)])
def test_json_lines_match_the_schema_and_classic_round_counts(
    dixit: Runner, players: int, rounds: int
) -> None:
    result = dixit("simulate", "--players", str(players), "--games", "3", "--seed", "40", "--json")
    assert result.status == 0, result.err
    games = lines_of(result.out)
    assert [g["seed"] for g in games] == [40, 41, 42]
    for game in games:
        assert set(game) == KEYS
        assert game["rounds"] == rounds
        history = game["score_history"]
        scores = game["scores"]
        outcomes = game["outcomes"]
        winners = game["winners"]
        assert isinstance(history, list) and isinstance(scores, dict)
        assert isinstance(outcomes, dict) and isinstance(winners, list)
        assert len(history) == rounds
        assert all(isinstance(row, list) and len(row) == players for row in history)
        # Running totals never go down and end at the final scores, in seat order.
        for before, after in itertools.pairwise(history):
            assert all(b <= a for b, a in zip(before, after, strict=True))
        assert history[-1] == list(scores.values())
        assert len(scores) == players and all(isinstance(s, int) for s in scores.values())
        assert set(outcomes) == {"everybody", "nobody", "some"}
        assert sum(outcomes.values()) == rounds
        best = max(scores.values())
        assert winners == [p for p, s in scores.items() if s == best]


def test_same_seed_same_output_and_other_seed_differs(dixit: Runner) -> None:
    args = ("simulate", "--games", "4", "--seed", "7", "--json")
    first, again = dixit(*args).out, dixit(*args).out
    assert first == again
    assert dixit("simulate", "--games", "4", "--seed", "8", "--json").out != first
    # Game i of a run is the game of seed S+i alone.
    alone = dixit("simulate", "--games", "1", "--seed", "9", "--json").out
    assert first.splitlines()[2] == alone.strip()


def test_2021_games_end_at_30_and_options_map_to_rules(dixit: Runner) -> None:
    games = lines_of(dixit("simulate", "--edition", "2021", "--players", "8", "--games", "3",
                           "--json").out)  # fmt: skip
    for game in games:
        assert max(game["scores"].values()) >= 30
    capped = lines_of(dixit("simulate", "--max-rounds", "4", "--games", "2", "--json").out)
    assert [g["rounds"] for g in capped] == [4, 4]
    short = lines_of(dixit("simulate", "--end-at-score", "5", "--games", "2", "--json").out)
    for game in short:
        assert max(game["scores"].values()) >= 5
        assert game["rounds"] < 11


def test_lone_finder_bonus_flag_changes_scores(dixit: Runner) -> None:
    off = dixit("simulate", "--players", "3", "--games", "3", "--json", "--no-lone-finder-bonus")
    on = dixit("simulate", "--players", "3", "--games", "3", "--json")  # classic 3p default: on
    assert off.out != on.out


def test_summary_and_save(dixit: Runner, tmp_path: Path) -> None:
    result = dixit("simulate", "--games", "5", "--seed", "3", "--save", str(tmp_path / "games"))
    assert result.status == 0, result.err
    out = result.out
    assert "5 game(s), 5 players, classic edition" in out
    assert "rounds per game    mean 11.00" in out
    for word in ("everybody", "nobody", "some", "score spread", "games/s"):
        assert word in out
    assert result.err == ""  # no progress bar when stderr is not a terminal
    saved = sorted(p.name for p in (tmp_path / "games").iterdir())
    assert saved == [f"game-{s}.jsonl" for s in range(3, 8)]
    first = (tmp_path / "games" / "game-3.jsonl").read_text().splitlines()
    assert json.loads(first[0])["type"] == "GameStarted"
    assert json.loads(first[-1])["type"] == "GameEnded"


def test_progress_bar_on_request(dixit: Runner) -> None:
    result = dixit("simulate", "--games", "2", "--progress", "--json")
    assert "2/2 games" in result.err
    assert len(result.out.splitlines()) == 2  # stdout holds only the JSON lines


def test_progress_bar_draws_in_place() -> None:
    import io

    stream = io.StringIO()
    bar = ProgressBar(4, stream, width=8)
    bar.update(2, force=True)
    bar.close()
    assert stream.getvalue().startswith("\r[####----] 2/4 games")
    assert "\r[########] 4/4 games" in stream.getvalue()
    assert stream.getvalue().endswith("\n")


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (("--players", "7"), "setup/player_count"),
        (("--edition", "deluxe"), "setup/unknown_edition"),
        (("--max-rounds", "0"), "setup/bad_option"),
        (("--games", "0"), "setup/bad_option"),
    ],
)
def test_bad_settings_exit_2(dixit: Runner, args: tuple[str, ...], code: str) -> None:
    result = dixit("simulate", *args)
    assert result.status == 2
    assert result.error()["code"] == code


@pytest.mark.parametrize(
    ("mode", "players"),
    [("standard", 3), ("standard", 7), ("standard", 12), ("party", 6), ("teams", 8)],
)
def test_odyssey_games_of_every_mode_pass_the_check(dixit: Runner, mode: str, players: int) -> None:
    args = ("--edition", "odyssey", "--mode", mode, "--players", str(players))
    result = dixit("simulate", *args, "--games", "5", "--check", "--json")
    assert result.status == 0, result.err
    games = lines_of(result.out)
    for game in games:
        if mode == "party":
            assert game["rounds"] == players and set(game["outcomes"]) == {"party"}
        else:
            assert max(game["scores"].values()) >= 30
        if mode == "teams":  # partners share every point
            scores = list(game["scores"].values())
            assert scores[::2] == scores[1::2]
    summary = dixit("simulate", *args, "--games", "3")
    assert summary.status == 0 and "odyssey edition" in summary.out
    assert ("party mode" in summary.out) == (mode == "party")


def test_odyssey_with_computer_players_casts_second_votes(dixit: Runner) -> None:
    result = dixit(
        "simulate", "--edition", "odyssey", "--players", "8", "--games", "1", "--bots", "medium",
        "--check", "--json",
    )  # fmt: skip
    assert result.status == 0, result.err
    (game,) = lines_of(result.out)
    # Eight players, two votes each where it pays: more votes than one per voter and round.
    assert game["votes"]["cast"] > 7 * game["rounds"]


def test_a_mode_outside_the_edition_s_player_counts_is_refused(dixit: Runner) -> None:
    result = dixit("simulate", "--edition", "odyssey", "--mode", "party", "--players", "5")
    assert result.status == 2
    assert json.loads(result.err)["error"]["code"] == "setup/player_count"
