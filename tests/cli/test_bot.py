"""``dixit bot listen|tell``, ``dixit simulate --bots`` and ``dixit arena``: the JSON contracts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from dixit.bots import LEVELS
from dixit.decks.library import builtin_root

from .conftest import Runner


@pytest.fixture(autouse=True)
def empty_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DIXIT_DATA_DIR", str(tmp_path))


def deck_ids(slug: str = "default-1") -> list[str]:
    data = json.loads((builtin_root() / slug / "deck.json").read_text("utf-8"))
    return [c["id"] for c in data["cards"]]


def lines(out: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.splitlines()]


@pytest.mark.parametrize("level", LEVELS)
def test_listen_ranks_every_card_once_per_line(dixit: Runner, level: str) -> None:
    ids = deck_ids()
    asks = [{"clue": "moose under the stars", "cards": ids[:6]},
            {"clue": "la notte", "cards": ids[10:15]}]  # fmt: skip
    result = dixit("bot", "listen", "--level", level, "--lang", "it",
                   stdin="".join(json.dumps(a) + "\n" for a in asks))  # fmt: skip
    assert result.status == 0, result.err
    answers = lines(result.out)
    assert len(answers) == 2
    for ask, answer in zip(asks, answers, strict=True):
        assert set(answer) == {"ranking"}
        assert sorted(answer["ranking"]) == sorted(ask["cards"])


def test_listen_puts_the_described_card_first(dixit: Runner) -> None:
    data = json.loads((builtin_root() / "default-1" / "deck.json").read_text("utf-8"))
    card = data["cards"][0]
    others = [c["id"] for c in data["cards"][1:6]]
    ask = {"clue": card["title"], "cards": [*others, card["id"]]}
    result = dixit("bot", "listen", stdin=json.dumps(ask) + "\n")
    assert result.status == 0 and lines(result.out)[0]["ranking"][0] == card["id"]


@pytest.mark.parametrize("level", LEVELS)
def test_tell_answers_a_card_of_the_hand_and_a_clue(dixit: Runner, level: str) -> None:
    hand = deck_ids()[20:26]
    result = dixit("bot", "tell", "--level", level, "--lang", "pl",
                   stdin=json.dumps({"hand": hand}) + "\n")  # fmt: skip
    assert result.status == 0, result.err
    (answer,) = lines(result.out)
    assert set(answer) == {"card", "clue"}
    assert answer["card"] in hand and isinstance(answer["clue"], str) and answer["clue"].strip()


def test_bad_lines_get_an_error_line_and_the_rest_are_answered(dixit: Runner) -> None:
    ids = deck_ids()
    stdin = "\n".join([
        "not json",
        json.dumps({"clue": "", "cards": ids[:3]}),
        json.dumps({"clue": "stars", "cards": ["nope-000000000000"]}),
        json.dumps({"clue": "stars", "cards": ids[:3]}),
        json.dumps(["a list"]),
    ]) + "\n"  # fmt: skip
    result = dixit("bot", "listen", stdin=stdin)
    assert result.status == 2
    out = lines(result.out)
    assert [o.get("error", {}).get("code") for o in out] == [
        "command/malformed", "command/malformed", "card/unknown", None, "command/malformed",
    ]  # fmt: skip
    assert sorted(out[3]["ranking"]) == sorted(ids[:3])
    told = dixit("bot", "tell", stdin=json.dumps({"hand": "x"}) + "\n")
    assert told.status == 2 and lines(told.out)[0]["error"]["code"] == "command/malformed"


def test_simulate_with_bots_adds_levels_and_votes(dixit: Runner) -> None:
    levels = "strong,medium,easy,random"
    result = dixit("simulate", "--bots", levels, "--players", "4", "--games", "2", "--json",
                   "--deck", "default-1", "--lang", "fr")  # fmt: skip
    assert result.status == 0, result.err
    for game in lines(result.out):
        assert game["levels"] == levels.split(",")
        assert set(game["votes"]) == {"cast", "for_storyteller"}
        assert game["votes"]["cast"] == 3 * game["rounds"]  # three voters a round
        assert 0 <= game["votes"]["for_storyteller"] <= game["votes"]["cast"]
    again = dixit("simulate", "--bots", levels, "--players", "4", "--games", "2", "--json",
                  "--deck", "default-1", "--lang", "fr")  # fmt: skip
    assert again.out == result.out
    every = dixit("simulate", "--bots", "easy", "--players", "3", "--games", "1", "--json")
    assert lines(every.out)[0]["levels"] == ["easy"] * 3
    wrong = dixit("simulate", "--bots", "easy,strong", "--players", "4")
    assert wrong.status == 2 and wrong.error()["code"] == "setup/bad_option"


def test_arena_table_per_level(dixit: Runner) -> None:
    result = dixit("arena", "--levels", "strong,medium,easy,random", "--games", "4", "--json",
                   "--deck", "default-1")  # fmt: skip
    assert result.status == 0, result.err
    table = result.json()
    assert table["games"] == 4 and list(table["levels"]) == ["strong", "medium", "easy", "random"]
    for row in table["levels"].values():
        assert set(row) == {"seats", "win_rate", "storyteller_success", "listener_accuracy",
                            "votes_per_decoy"}  # fmt: skip
        assert row["seats"] == 4
        for name in ("win_rate", "storyteller_success", "listener_accuracy"):
            rate = row[name]
            low, high = rate["ci95"]
            assert 0 <= low <= (rate["rate"] or 0) <= high <= 1
    text = dixit("arena", "--levels", "strong,random,random", "--games", "2")
    assert text.status == 0 and "storyteller success" in text.out


def test_arena_seats_an_outside_agent(dixit: Runner) -> None:
    result = dixit("arena", "--levels", "strong,easy", "--agent", "dixit.bots:RandomBot",
                   "--games", "3", "--json")  # fmt: skip
    assert result.status == 0, result.err
    assert list(result.json()["levels"]) == ["strong", "easy", "agent"]
    not_a_bot = dixit("arena", "--agent", "random:Random", "--games", "1")
    assert not_a_bot.status == 2 and not_a_bot.error()["code"] == "setup/bad_option"
    wrong_shape = dixit("arena", "--agent", "dixit.bots.players:ReadingBot", "--games", "1")
    assert wrong_shape.status == 2 and wrong_shape.error()["code"] == "setup/bad_option"
    bad = dixit("arena", "--agent", "no.such.module:Bot")
    assert bad.status == 2 and bad.error()["code"] == "setup/bad_option"
    unknown = dixit("arena", "--levels", "strong,genius")
    assert unknown.status == 2 and unknown.error()["code"] == "setup/bad_option"


def test_the_example_outside_agent_plays_a_full_arena_match_by_module_path(
    dixit: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(Path(__file__).parents[2])  # examples/ is found from the current directory
    result = dixit("arena", "--levels", "strong,random", "--agent",
                   "examples.prompt_agent:PromptAgent", "--games", "2", "--json")  # fmt: skip
    assert result.status == 0, result.err
    agent = result.json()["levels"]["agent"]
    assert agent["seats"] == 2 and 0 <= agent["win_rate"]["rate"] <= 1
