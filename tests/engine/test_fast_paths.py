"""The engine's fast paths agree with the reference ones they stand in for (hypothesis)."""

from __future__ import annotations

import dataclasses
import inspect
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dixit import engine
from dixit.engine import (
    Phase,
    StartGame,
    execute,
    playthrough,
    random_command,
    random_playthrough,
    replay,
    rules_for,
)
from dixit.engine.chance import shuffle
from dixit.engine.values import quick_init

COMBOS = [("classic", n) for n in range(3, 7)] + [("2021", n) for n in range(3, 9)]
DECK = tuple(f"card-{i:03}" for i in range(84))
PROFILE = settings(
    max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**64), size=st.integers(0, 200))
def test_shuffle_draws_what_random_shuffle_draws(seed, size):
    ours, theirs = list(range(size)), list(range(size))
    a, b = random.Random(seed), random.Random(seed)
    shuffle(a, ours)
    b.shuffle(theirs)
    assert ours == theirs
    assert a.getstate() == b.getstate()


def test_shuffle_leaves_another_generator_to_shuffle_itself():
    class Reversing(random.Random):
        def shuffle(self, x):
            x.reverse()

    items = [1, 2, 3]
    shuffle(Reversing(1), items)
    assert items == [3, 2, 1]


@pytest.mark.parametrize(("edition", "players"), COMBOS)
@PROFILE
@given(seed=st.integers(0, 2**32), claim=st.booleans())
def test_random_playthrough_in_one_state_is_the_game_execute_plays(edition, players, seed, claim):
    """``random_playthrough`` folds every move into one private state; the reference plays the
    same chooser through ``playthrough``, a fresh state per move from ``execute``."""
    names = tuple(f"p{i}" for i in range(players))
    first = None if claim else names[-1]
    state, events = random_playthrough(rules_for(edition), names, DECK, seed, first)

    rng = random.Random(seed)
    chooser = random.Random(seed ^ 0x5EED)
    start = StartGame(names, DECK, rules_for(edition), first)
    expected, log = execute(None, start, rng)
    seen = []
    for _command, after, new in playthrough(
        expected, rng, lambda s, p: random_command(s, p, chooser)
    ):
        seen.append((after, after.version, dict(after.hands)))
        log.extend(new)
        expected = after
    assert events == log
    assert state == expected == replay(events)
    assert state.phase is Phase.OVER
    # every state the reference handed out is still what it was
    assert all(s.version == v and s.hands == h for s, v, h in seen)


def _has_quick_init(cls: object) -> bool:
    init = getattr(cls, "__init__", None)
    code = getattr(init, "__code__", None)
    return code is not None and any(name.startswith("_set_") for name in code.co_names)


QUICK = [cls for cls in vars(engine).values() if isinstance(cls, type) and _has_quick_init(cls)]


def test_quick_init_is_on_the_commands_events_and_views():
    names = {cls.__name__ for cls in QUICK}
    assert {"GiveClue", "SubmitCards", "CastVote", "CardsSubmitted", "VoteCast"} <= names
    assert {"RoundScored", "PointsAwarded", "PlayerView", "LegalActions", "StartGame"} <= names


@pytest.mark.parametrize("cls", QUICK, ids=lambda cls: cls.__name__)
def test_a_quick_init_takes_the_dataclass_parameters_and_stays_frozen(cls):
    fields = dataclasses.fields(cls)
    parameters = list(inspect.signature(cls).parameters.values())
    assert [p.name for p in parameters] == [f.name for f in fields]
    for p, f in zip(parameters, fields, strict=True):
        expected = inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default
        assert p.default is expected
    values = [object() for _ in fields]
    by_position = cls(*values)
    by_name = cls(**{f.name: v for f, v in zip(fields, values, strict=True)})
    assert by_position == by_name
    assert [getattr(by_position, f.name) for f in fields] == values
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(by_position, fields[0].name, 1)
    with pytest.raises(TypeError):
        cls(*values, object())


def test_quick_init_refuses_what_it_cannot_copy():
    @dataclasses.dataclass(slots=True)
    class Mutable:
        x: int

    @dataclasses.dataclass(frozen=True)
    class Unslotted:
        x: int

    for cls in (Mutable, Unslotted):
        with pytest.raises(TypeError):
            quick_init(cls)


def test_events_hold_the_games_own_card_ids_not_the_commands_copies():
    """A command's card ids are equal copies (parsed from a message): the events, and so the
    state and the log a server keeps, hold the ids the game dealt, so each copy can go."""
    rng = random.Random(3)
    start = StartGame(("p1", "p2", "p3", "p4"), DECK, rules_for("classic"), first_storyteller="p1")
    state, _ = execute(None, start, rng)
    dealt = {id(card) for card in DECK}

    def copied(command):
        fields = {}
        for f in dataclasses.fields(command):
            value = getattr(command, f.name)
            if f.name == "card":
                value = "".join(value)  # an equal string that is not the dealt one
            elif f.name == "cards":
                value = tuple("".join(card) for card in value)
            fields[f.name] = value
        return type(command)(**fields)

    kinds = set()
    while state.phase is not Phase.OVER and state.round < 3:
        for player in engine.waiting_for(state):
            command = copied(random_command(state, player, rng))
            state, events = execute(state, command, rng)
            for event in events:
                kinds.add(type(event).__name__)
                cards = getattr(event, "cards", None) or (getattr(event, "card", None),)
                assert all(card is None or id(card) in dealt for card in cards), event
            break
    assert {"ClueGiven", "CardsSubmitted", "VoteCast"} <= kinds
    assert all(id(card) in dealt for card in (*state.table, *state.votes.values()))
