"""``dixit score``: the rulebooks' worked examples, every rejection, and the guided prompt."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from .conftest import Runner

# Classic, 5 players (Italian book; the Spanish and Polish books tell the same round). Massimo
# sits to Luca's left. Luca's card is no. 4, Denise's no. 1, Massimo's no. 3.
LUCA: dict[str, Any] = {
    "edition": "classic",
    "players": ["Luca", "Massimo", "Denise", "Marco", "Marta"],
    "storyteller": "Luca",
    "cards": {"Luca": ["4"], "Massimo": ["3"], "Denise": ["1"], "Marco": ["2"], "Marta": ["5"]},
    "votes": {"Denise": "4", "Massimo": "1", "Marco": "1", "Marta": "3"},
}
LUCA_POINTS = {"Luca": 3, "Massimo": 1, "Denise": 5, "Marco": 0, "Marta": 0}

# Classic, 5 players (Portuguese book).
ROSARINHO: dict[str, Any] = {
    "edition": "classic",
    "players": ["Rosarinho", "Matilde", "Sebastião", "Mafalda", "Vicente"],
    "storyteller": "Rosarinho",
    "cards": {
        "Rosarinho": ["r"],
        "Matilde": ["m"],
        "Sebastião": ["s"],
        "Mafalda": ["f"],
        "Vicente": ["v"],
    },
    "votes": {"Matilde": "r", "Sebastião": "f", "Mafalda": "s", "Vicente": "s"},
}
ROSARINHO_POINTS = {"Rosarinho": 3, "Matilde": 3, "Sebastião": 2, "Mafalda": 1, "Vicente": 0}

# 2021 edition, 6 players (Italian 2021 book), card ids as numbers on the board's slots.
PINK: dict[str, Any] = {
    "edition": "2021",
    "players": ["Pink", "Blue", "Green", "Purple", "Yellow", "Red"],
    "storyteller": "Pink",
    "cards": {"Pink": [1], "Blue": [2], "Green": [3], "Purple": [4], "Yellow": [5], "Red": [6]},
    "votes": {"Blue": 1, "Green": 1, "Red": 4, "Purple": 2, "Yellow": 2},
}
PINK_POINTS = {"Pink": 3, "Blue": 5, "Green": 3, "Purple": 1, "Yellow": 0, "Red": 0}


def with_(base: dict[str, Any], **changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(json.dumps(base))
    data.update(changes)
    return data


@pytest.mark.parametrize(
    ("round_", "points"),
    [(LUCA, LUCA_POINTS), (ROSARINHO, ROSARINHO_POINTS), (PINK, PINK_POINTS)],
    ids=["classic-luca", "classic-rosarinho", "2021-pink"],
)
def test_rulebook_worked_examples(dixit: Runner, round_: dict[str, Any], points: Any) -> None:
    result = dixit("score", stdin=json.dumps(round_))
    assert result.status == 0, result.err
    assert result.json() == {"points": points}
    assert list(result.json()["points"]) == round_["players"]  # every player, in seat order


def test_installed_entry_point_reads_stdin_and_writes_json() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "dixit.cli.main", "score"],
        input=json.dumps(LUCA),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"points": LUCA_POINTS}


def test_everybody_found_gives_storyteller_nothing_and_others_two(dixit: Runner) -> None:
    data = with_(LUCA, votes={"Denise": "4", "Massimo": "4", "Marco": "4", "Marta": "4"})
    assert dixit("score", stdin=json.dumps(data)).json()["points"] == {
        "Luca": 0,
        "Massimo": 2,
        "Denise": 2,
        "Marco": 2,
        "Marta": 2,
    }


def test_lone_finder_bonus_option_and_classic_three_player_default(dixit: Runner) -> None:
    luca_bonus = with_(LUCA, options={"lone_finder_bonus": True})
    points = dixit("score", stdin=json.dumps(luca_bonus)).json()["points"]
    assert points["Luca"] == 4 and points["Denise"] == 6

    three: dict[str, Any] = {
        "edition": "classic",
        "players": ["a", "b", "c"],
        "storyteller": "a",
        "cards": {"a": ["1"], "b": ["2", "3"], "c": ["4", "5"]},
        "votes": {"b": "1", "c": "2"},
    }
    # Classic 3-player: the bonus is on by default; a lone finder and the storyteller score 4.
    assert dixit("score", stdin=json.dumps(three)).json()["points"] == {"a": 4, "b": 5, "c": 0}
    off = with_(three, options={"lone_finder_bonus": False})
    assert dixit("score", stdin=json.dumps(off)).json()["points"] == {"a": 3, "b": 4, "c": 0}
    # The 2021 edition has no bonus by default.
    in_2021 = with_(three, edition="2021")
    assert dixit("score", stdin=json.dumps(in_2021)).json()["points"] == {"a": 3, "b": 4, "c": 0}


BAD_INPUTS = [
    ("own card", with_(LUCA, votes={**LUCA["votes"], "Marta": "5"}), "action/cannot_vote_own_card"),
    (
        "unknown card",
        with_(LUCA, votes={**LUCA["votes"], "Marta": "9"}),
        "action/card_not_on_table",
    ),
    (
        "storyteller votes",
        with_(LUCA, votes={**LUCA["votes"], "Luca": "1"}),
        "action/storyteller_cannot_vote",
    ),
    (
        "missing voter",
        with_(LUCA, votes={"Denise": "4", "Massimo": "1", "Marco": "1"}),
        "action/missing_vote",
    ),
    (
        "two cards in a 5-player game",
        with_(LUCA, cards={**LUCA["cards"], "Marco": ["2", "6"]}),
        "action/wrong_card_count",
    ),
    (
        "no card for a player",
        with_(LUCA, cards={k: v for k, v in LUCA["cards"].items() if k != "Marco"}),
        "action/wrong_card_count",
    ),
    (
        "storyteller with two cards",
        with_(LUCA, cards={**LUCA["cards"], "Luca": ["4", "6"]}),
        "action/wrong_card_count",
    ),
    (
        "one card in a 3-player game",
        {
            "edition": "classic",
            "players": ["a", "b", "c"],
            "storyteller": "a",
            "cards": {"a": ["1"], "b": ["2"], "c": ["4", "5"]},
            "votes": {"b": "1", "c": "2"},
        },
        "action/wrong_card_count",
    ),
    (
        "same card for two players",
        with_(LUCA, cards={**LUCA["cards"], "Marta": ["2"]}),
        "action/duplicate_card",
    ),
    ("too few players", with_(LUCA, players=["Luca", "Massimo"]), "setup/player_count"),
    (
        "seven players in classic",
        with_(PINK, edition="classic", players=[*PINK["players"], "White"]),
        "setup/player_count",
    ),
    ("unknown edition", with_(LUCA, edition="deluxe"), "setup/unknown_edition"),
    ("unknown option", with_(LUCA, options={"bunnies": True}), "setup/unknown_option"),
    ("option not a bool", with_(LUCA, options={"lone_finder_bonus": "yes"}), "setup/bad_option"),
    ("storyteller not playing", with_(LUCA, storyteller="Paolo"), "setup/unknown_player"),
    (
        "vote by a stranger",
        with_(LUCA, votes={**LUCA["votes"], "Paolo": "1"}),
        "setup/unknown_player",
    ),
    (
        "same name twice",
        with_(LUCA, players=["Luca", "Luca", "Denise", "Marco", "Marta"]),
        "setup/duplicate_player",
    ),
    ("players not a list", with_(LUCA, players="Luca"), "command/malformed"),
    ("missing field", {k: v for k, v in LUCA.items() if k != "votes"}, "command/malformed"),
    ("unknown field", with_(LUCA, round=3), "command/malformed"),
    (
        "card not a string",
        with_(LUCA, votes={**LUCA["votes"], "Marta": ["3"]}),
        "command/malformed",
    ),
    ("not an object", [LUCA], "command/malformed"),
]


@pytest.mark.parametrize(
    ("data", "code"), [(d, c) for _, d, c in BAD_INPUTS], ids=[n for n, _, _ in BAD_INPUTS]
)
def test_bad_input_exits_2_with_a_coded_json_error(dixit: Runner, data: Any, code: str) -> None:
    result = dixit("score", stdin=json.dumps(data))
    assert result.status == 2
    assert result.out == ""
    error = result.error()
    assert error["code"] == code
    assert isinstance(error["message"], str) and error["message"]


@pytest.mark.parametrize("text", ["", "{", "not json", '{"edition": "classic",}'])
def test_text_that_is_not_json_is_malformed(dixit: Runner, text: str) -> None:
    result = dixit("score", stdin=text)
    assert result.status == 2
    assert result.error()["code"] == "command/malformed"


# --- interactive ------------------------------------------------------------------------------

SCRIPT = "\n".join(
    [
        "Luca, Massimo, Denise, Marco, Marta",  # players, seat order
        "",  # round 1: storyteller defaults to the first seat (Luca)
        "4",  # Luca's card (the storyteller's) is table no. 4
        "3",  # Massimo
        "1",  # Denise
        "2",  # Marco
        "1",  # Marta: no. 1 is taken -> re-asked
        "5",  # Marta
        "1",  # Massimo votes no. 1 (Denise's)
        "1",  # Denise votes no. 1: her own card -> re-asked
        "4",  # Denise finds the storyteller
        "9",  # Marco: no such table number -> re-asked
        "1",  # Marco
        "3",  # Marta votes Massimo's card
        "Zoe",  # round 2: not a player -> re-asked
        "",  # storyteller defaults to the next seat, Massimo
        "1",
        "2",
        "3",
        "4",
        "5",
        "1",  # Luca finds Massimo's card
        "1",  # Denise too
        "1",  # Marco too
        "1",  # Marta too: everybody found it
        "q",  # end
    ]
)


def test_interactive_keeps_a_running_score_and_reasks_bad_entries(dixit: Runner) -> None:
    result = dixit("score", "--interactive", stdin=SCRIPT + "\n")
    assert result.status == 0, result.err
    out = result.out
    assert "action/duplicate_card" in out
    assert "action/cannot_vote_own_card" in out
    assert "action/card_not_on_table" in out
    assert "setup/unknown_player" in out
    assert "Storyteller [Luca]" in out and "Storyteller [Massimo]" in out
    round1 = out.split("Round 1 points:")[1].split("Round 2")[0]
    for name, gained, total in [
        ("Luca", 3, 3),
        ("Massimo", 1, 1),
        ("Denise", 5, 5),
        ("Marco", 0, 0),
        ("Marta", 0, 0),
    ]:
        assert f"{name:<7}  +{gained:<2}  total {total}" in round1
    final = out.split("Final totals:")[1]
    # Round 2: everybody found Massimo's card: Massimo 0, everyone else 2.
    lines = [line.split() for line in final.strip().splitlines()]
    assert lines[:5] == [["Denise", "7"], ["Luca", "5"], ["Marco", "2"], ["Marta", "2"],
                         ["Massimo", "1"]]  # fmt: skip
    assert lines[5] == ["Leader:", "Denise"]


def test_interactive_three_players_two_cards_each_and_end_of_input(dixit: Runner) -> None:
    script = "a, b\na, b, c\n\n1\n2 3\n4,5\n1\n2\n"  # two names: re-asked; input ends mid-round 2
    result = dixit("score", "-i", stdin=script)
    assert result.status == 0
    assert "setup/player_count" in result.out
    assert "Table numbers of b's 2 cards" in result.out
    # The classic 3-player default: a lone finder and the storyteller score 4.
    assert "Leaders: a, b" in result.out or "Leader: b" in result.out
    final = result.out.split("Final totals:")[1].split()
    assert final[:6] == ["b", "5", "a", "4", "c", "0"]


def test_interactive_2021_ends_when_someone_reaches_30(dixit: Runner) -> None:
    # 8 players; each round h alone finds the storyteller's card (table no. 1) and the six other
    # voters pick h's card (no. 8): h scores 3 + 6 = 9 a round, so 36 after round 4.
    one_round = ["", *(str(i) for i in range(1, 9)), *(["8"] * 6), "1"]
    script = "a,b,c,d,e,f,g,h\n" + "\n".join(one_round * 6) + "\n"
    result = dixit("score", "-i", "--edition", "2021", stdin=script)
    assert result.status == 0
    assert "2021 edition" in result.out
    assert [f"Round {n} points:" in result.out for n in range(1, 6)] == [True] * 4 + [False]
    assert "h reached 30 points: the game ends" in result.out
    assert "Leader: h" in result.out
    assert result.out.split("Final totals:")[1].split()[:2] == ["h", "36"]


def test_interactive_rejects_an_unknown_edition(dixit: Runner) -> None:
    result = dixit("score", "-i", "--edition", "deluxe", stdin="")
    assert result.status == 2
    assert result.error()["code"] == "setup/unknown_edition"


def test_odyssey_two_votes_the_cap_and_the_single_vote_bonus(dixit: Runner) -> None:
    # Seven players: a scored with b's and c's cards; b finds with one vote (3 + 1); c finds
    # with one of two (3); four votes on b's card are capped at 3.
    players = ["a", "b", "c", "d", "e", "f", "g"]
    data = {
        "edition": "odyssey",
        "players": players,
        "storyteller": "a",
        "cards": {p: [str(i + 1)] for i, p in enumerate(players)},
        "votes": {"b": "1", "c": ["2", "1"], "d": "2", "e": ["2", "3"], "f": "2", "g": ["3", "2"]},
    }
    points = dixit("score", stdin=json.dumps(data)).json()["points"]
    assert points == {"a": 3, "b": 4 + 3, "c": 3 + 2, "d": 0, "e": 0, "f": 0, "g": 0}
    for votes, code in [
        ({**data["votes"], "b": ["1", "1"]}, "action/duplicate_card"),
        ({**data["votes"], "b": ["1", "2", "3"]}, "command/malformed"),
    ]:
        result = dixit("score", stdin=json.dumps({**data, "votes": votes}))
        assert result.status == 2 and json.loads(result.err)["error"]["code"] == code
    six = {**data, "players": players[:6], "votes": {"b": ["1", "3"], "c": "1", "d": "1",
                                                     "e": "1", "f": "1"}}  # fmt: skip
    six["cards"] = {p: [str(i + 1)] for i, p in enumerate(players[:6])}
    result = dixit("score", stdin=json.dumps(six))
    assert result.status == 2 and json.loads(result.err)["error"]["code"] == "command/malformed"


def test_interactive_odyssey_takes_one_or_two_votes(dixit: Runner) -> None:
    names = "a, b, c, d, e, f, g"
    script = "\n".join([names, "", "1", "2", "3", "4", "5", "6", "7",
                        "1", "2 1", "2", "2 3", "2", "3 2", "q"])  # fmt: skip
    result = dixit("score", "-i", "--edition", "odyssey", stdin=script + "\n")
    assert result.status == 0, result.err
    assert "one or two" in result.out
    assert "+7" in result.out and "+5" in result.out
