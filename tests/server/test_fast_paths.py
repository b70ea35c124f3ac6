"""The server's fast paths give exactly what the typed models give: message parsing (same
message or same error), acks, JSON text, events shared between viewers, views built from a
shared part and each viewer's own."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from pydantic import ValidationError

from dixit.bots import RandomBot
from dixit.engine import LegalActions, StartGame, execute, player_view, playthrough, rules_for
from dixit.protocol import ProtocolError, parse_client_message
from dixit.protocol import messages as m
from dixit.protocol.convert import (
    ack_json,
    redact_dict,
    round_dict,
    shared_event_dicts,
    to_json,
    view_dict,
)
from dixit.protocol.parse import _parse
from dixit.server.fanout import Fanout, room_head, you_json
from dixit.server.records import room_settings


def _slow_parse(text: str) -> m.ClientModel:
    """The reference: the standard library's JSON and pydantic validation."""
    try:
        data = json.loads(text)
    except ValueError:
        raise ProtocolError("command/malformed", "not valid JSON") from None
    return _parse(data)


def _outcome(fn: Any, text: str) -> tuple[str, Any]:
    try:
        msg = fn(text)
    except ProtocolError as error:
        return "error", (error.code, error.message, error.command_id)
    return "ok", (type(msg), msg.model_dump())


MOVES: list[Any] = [
    {"type": "cast_vote", "id": "a1", "card": "c-1"},
    {"type": "cast_vote", "v": 1, "id": "a1", "card": "c-1"},
    {"type": "submit_cards", "id": "x", "cards": ["a"]},
    {"type": "submit_cards", "id": "x", "cards": ["a", "b", "c"]},
    {"type": "give_clue", "id": "x", "card": "c", "clue": ""},
    {"type": "give_clue", "id": "x", "card": "c", "clue": "a tale ✨"},
    # every one of these must be refused or handled exactly as pydantic does
    {"type": "cast_vote", "id": "", "card": "c"},
    {"type": "cast_vote", "id": "a" * 64, "card": "c"},
    {"type": "cast_vote", "id": "a" * 65, "card": "c"},
    {"type": "cast_vote", "id": "a", "card": "c" * 128},
    {"type": "cast_vote", "id": "a", "card": "c" * 129},
    {"type": "cast_vote", "id": "a", "card": ""},
    {"type": "cast_vote", "id": "a", "card": 5},
    {"type": "cast_vote", "id": 5, "card": "c"},
    {"type": "cast_vote", "id": "a"},
    {"type": "cast_vote", "card": "c"},
    {"type": "cast_vote", "id": "a", "card": "c", "extra": 1},
    {"type": "cast_vote", "v": 2, "id": "a", "card": "c"},
    {"type": "cast_vote", "v": True, "id": "a", "card": "c"},
    {"type": "cast_vote", "v": 1.0, "id": "a", "card": "c"},
    {"type": "cast_vote", "v": "1", "id": "a", "card": "c"},
    {"type": "cast_vote", "id": "a", "card": None},
    {"type": "submit_cards", "id": "x", "cards": []},
    {"type": "submit_cards", "id": "x", "cards": ["a", "b", "c", "d"]},
    {"type": "submit_cards", "id": "x", "cards": ["a", ""]},
    {"type": "submit_cards", "id": "x", "cards": ["a", 1]},
    {"type": "submit_cards", "id": "x", "cards": "abc"},
    {"type": "submit_cards", "id": "x", "cards": {"a": 1}},
    {"type": "submit_cards", "id": "x", "card": "a"},
    {"type": "give_clue", "id": "x", "card": "c", "clue": "a" * m.MAX_CLUE_LENGTH},
    {"type": "give_clue", "id": "x", "card": "c", "clue": "a" * (m.MAX_CLUE_LENGTH + 1)},
    {"type": "give_clue", "id": "x", "card": "c", "clue": None},
    {"type": "give_clue", "id": "x", "card": "c"},
    {"type": "give_clue", "id": "x", "clue": "c"},
    {"type": "hello", "token": "t"},
    {"type": "ping", "id": "p"},
    {"type": "nope", "id": "p"},
    {"id": "p"},
    [],
    "text",
    7,
]

RAW = [
    '{"type":"give_clue","id":"x","card":"c","clue":"\\ud800"}',  # a lone surrogate
    '{"type":"cast_vote","id":"x","card":"c","v":NaN}',
    '{"type":"cast_vote","id":"x","card":"c","v":100000000000000000000000}',
    '{"type":"cast_vote","id":"x","card":"c","id":"y"}',
    '{"type":"cast_vote","id":"x","card":"c"',
    "",
    "null",
]


@pytest.mark.parametrize("text", [json.dumps(x) for x in MOVES] + RAW)
def test_parsing_matches_pydantic(text: str) -> None:
    assert _outcome(parse_client_message, text) == _outcome(_slow_parse, text)


def test_random_moves_parse_like_pydantic() -> None:
    rng = random.Random(7)
    pieces: list[Any] = ["", "a", "a" * 64, "a" * 65, "b" * 128, "b" * 129, 1, None, True, [], {}]
    for _ in range(2000):
        kind = rng.choice(["cast_vote", "submit_cards", "give_clue", "ping"])
        data: dict[str, Any] = {"type": kind}
        for key in ("id", "card", "clue", "v", "x"):
            if rng.random() < 0.7:
                data[key] = rng.choice([*pieces, 1, 2])
        if rng.random() < 0.7:
            data["cards"] = [rng.choice(pieces) for _ in range(rng.randrange(5))]
        text = json.dumps(data)
        assert _outcome(parse_client_message, text) == _outcome(_slow_parse, text), text


def test_ack_and_json_text_match_the_models() -> None:
    for cid, version, duplicate in [("a", 1, False), ("ü\"'\\", 99, True)]:
        model = m.Ack(id=cid, version=version, duplicate=duplicate)
        assert ack_json(cid, version, duplicate) == model.model_dump_json()
    for value in [{"a": "ü ✨ \u2028 \x01"}, {"clue": "\ud800"}, {"n": 10**30}, [None, True, 1]]:
        assert to_json(value) == json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def test_room_update_text_matches_the_model() -> None:
    seat = m.Seat(
        id="s-ü1",
        name='Zoë "the fox" ✨',
        colour="red",
        is_host=True,
        is_bot=False,
        bot_kind=None,
        bot_level=None,
        connected=True,
        left=False,
        autoplay=False,
    )
    room = m.RoomState(
        code="ABCD",
        status="lobby",
        game_number=1,
        host="s-ü1",
        seats=[seat],
        spectators=2,
        settings=m.RoomSettings(),
        deadline=None,
        version=0,
        bots_can_read=True,
    )
    for viewer, host in [(None, "s-ü1"), ("s-ü1", "s-ü1"), ("s2", "s-ü1"), ("s2", None)]:
        model = m.RoomUpdate(
            room=room,
            you=m.You(
                role="player" if viewer else "spectator",
                seat=viewer,
                is_host=viewer is not None and viewer == host,
            ),
        )
        assert room_head(room) + you_json(viewer, host) + "}" == model.model_dump_json()


def test_shared_events_are_what_every_viewer_would_get() -> None:
    rng = random.Random(3)
    seats = ("p1", "p2", "p3", "p4")
    deck = tuple(f"card-{i:03}" for i in range(84))
    start = execute(None, StartGame(seats, deck, rules_for("classic", max_rounds=3), None), rng)
    bot = RandomBot(rng)
    moves = playthrough(start[0], rng, lambda s, player: bot.act(player_view(s, player)))
    for state, events in [start, *((after, new) for _, after, new in moves)]:
        shared = shared_event_dicts(events)
        for viewer in (*seats, None):
            for event, common in zip(events, shared, strict=True):
                wire = redact_dict(event, viewer)
                if common is not None:
                    assert common == wire
        for scored in state.rounds:
            model = m.RoundResult.model_validate(round_dict(scored))
            assert round_dict(scored) == model.model_dump(mode="json")
            assert to_json(round_dict(scored)) == model.model_dump_json()
    assert state.phase.value == "over"


@pytest.mark.parametrize("edition", ["classic", "2021"])
def test_a_game_update_is_each_viewers_own_view(edition: str) -> None:
    """The fan-out builds the shared part of a view once per change and splices in each
    viewer's own: the result must be, field for field, the engine's view of that viewer."""
    rng = random.Random(11)
    seats = ("p1", "p2", "p3", "p4", "p5")
    deck = tuple(f"card-{i:03}" for i in range(96))
    start = execute(None, StartGame(seats, deck, rules_for(edition, max_rounds=3), None), rng)
    bot = RandomBot(rng)
    moves = playthrough(start[0], rng, lambda s, player: bot.act(player_view(s, player)))
    fanout = Fanout()
    checked = 0
    for state, events in [start, *((after, new) for _, after, new in moves)]:
        shared_view = fanout.shared_view_text(state)
        before = state.version - len(events)
        numbered = [(before + i + 1, e) for i, e in enumerate(events)]
        for viewer in (*seats, None, "not-playing"):
            for playing, sent in ((True, numbered), (False, numbered), (True, [])):
                text = fanout.game_text(
                    state, playing, viewer, before, sent, False, (), shared_view
                )
                update = m.GameUpdate.model_validate_json(text)
                legal = None if playing else LegalActions()
                expected = view_dict(player_view(state, viewer), legal=legal)
                wire = [{"version": v, "event": redact_dict(e, viewer)} for v, e in sent]
                assert json.loads(text) == {
                    "type": "game",
                    "v": m.PROTOCOL_VERSION,
                    "from_version": before,
                    "events": wire,
                    "view": expected,
                    "reset": False,
                }
                assert update.view.model_dump(mode="json") == expected
                checked += 1
    assert state.phase.value == "over" and checked > 300


def test_the_rounds_text_is_the_same_however_the_rounds_arrived() -> None:
    """The kept rounds text grows a round at a time in play, but a room loaded mid-game (or
    catching up) takes several rounds at once, and a new game starts it afresh: each way, the
    shared view must be the one built from nothing."""
    rng = random.Random(5)
    seats = ("p1", "p2", "p3", "p4")
    deck = tuple(f"card-{i:03}" for i in range(84))
    start = execute(None, StartGame(seats, deck, rules_for("classic", max_rounds=4), None), rng)
    bot = RandomBot(rng)
    states = [s for _, s, _ in playthrough(start[0], rng, lambda s, p: bot.act(player_view(s, p)))]
    last = states[-1]
    assert len(last.rounds) == 4

    def fresh(state: Any) -> str:
        return Fanout().shared_view_text(state)

    in_play = Fanout()
    for state in states:
        assert in_play.shared_view_text(state) == fresh(state)
    loaded = Fanout()
    middle = next(s for s in states if len(s.rounds) == 2)
    assert loaded.shared_view_text(middle) == fresh(middle)  # two rounds at once
    assert loaded.shared_view_text(last) == fresh(last)  # two more at once
    assert loaded.shared_view_text(start[0]) == fresh(start[0])  # a new game: none
    loaded.shared_view_text(last)
    loaded.reset_rounds()
    assert loaded.shared_view_text(middle) == fresh(middle)
    assert json.loads("{" + fresh(last) + "}")["rounds"] == [
        round_dict(scored) for scored in last.rounds
    ]


def test_a_view_with_the_last_round_is_the_full_view_but_for_the_older_rounds() -> None:
    """``hello.rounds: "last"``: the same shared view, its rounds cut to the latest, whether
    the fan-out also made the full one for other sockets or not, and after a new game."""
    rng = random.Random(8)
    seats = ("p1", "p2", "p3")
    deck = tuple(f"card-{i:03}" for i in range(84))
    start = execute(None, StartGame(seats, deck, rules_for("2021", max_rounds=3), None), rng)
    bot = RandomBot(rng)
    states = [s for _, s, _ in playthrough(start[0], rng, lambda s, p: bot.act(player_view(s, p)))]
    both, alone = Fanout(), Fanout()
    for state in [start[0], *states, start[0]]:
        if state is start[0]:
            both.reset_rounds()
            alone.reset_rounds()
        full = json.loads("{" + both.shared_view_text(state, True) + "}")
        for fanout in (both, alone):
            cut = json.loads("{" + fanout.shared_view_text(state, False) + "}")
            assert cut == {**full, "rounds": full["rounds"][-1:]}
            assert cut["rounds"] == [round_dict(r) for r in state.rounds[-1:]]
    assert len(states[-1].rounds) == 3


def test_rooms_with_the_same_settings_share_one_settings_model() -> None:
    """A room's settings model is shared with every room whose settings are the same (models
    are frozen): the same settings in another key order are the same, others are not, and
    settings that do not validate are refused as they always were."""
    raw = {"edition": "2021", "timers": {"clue": None, "submit": 60, "vote": 30}}
    first = room_settings(raw)
    assert first == m.RoomSettings.model_validate(raw)
    assert room_settings(dict(reversed(raw.items()))) is first
    other = room_settings({**raw, "edition": "classic"})
    assert other is not first and other.edition == "classic"
    with pytest.raises(ValidationError):
        room_settings({"edition": "2031"})
    with pytest.raises(ValidationError):
        first.edition = "classic"
