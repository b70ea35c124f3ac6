"""The engine's own loop for playing games through, and the checker of recorded games."""

from __future__ import annotations

import dataclasses

import pytest

from dixit.engine import (
    InvalidLog,
    Phase,
    RoundScored,
    random_playthrough,
    replay,
    rules_for,
    verify,
)

DECK = tuple(f"card-{i:03}" for i in range(84))
NAMES = ("ann", "bo", "cy", "di")


@pytest.mark.parametrize("edition", ["classic", "2021"])
def test_a_seed_fixes_a_whole_game_that_the_checker_accepts(edition):
    state, events = random_playthrough(rules_for(edition), NAMES, DECK, 5)
    assert state.phase is Phase.OVER
    assert (state, events) == random_playthrough(rules_for(edition), NAMES, DECK, 5)
    assert random_playthrough(rules_for(edition), NAMES, DECK, 6)[1] != events
    assert verify(events) == replay(events) == state


def test_a_chooser_that_never_acts_is_an_error_not_a_hang():
    with pytest.raises(RuntimeError, match="no progress"):
        random_playthrough(rules_for("classic"), NAMES, DECK, 1, choose=lambda s, p: None)


def test_the_checker_names_the_first_event_that_does_not_follow_from_the_rules():
    _, events = random_playthrough(rules_for("classic"), NAMES, DECK, 3, first_storyteller="ann")
    at = next(i for i, e in enumerate(events) if isinstance(e, RoundScored))
    scored = events[at]
    assert isinstance(scored, RoundScored)
    bumped = dataclasses.replace(scored.awards[0], points=scored.awards[0].points + 1)
    forged = dataclasses.replace(scored, awards=(bumped, *scored.awards[1:]))
    with pytest.raises(InvalidLog) as error:
        verify([*events[:at], forged, *events[at + 1 :]])
    assert error.value.index == at and error.value.code == "event/invalid"
    with pytest.raises(InvalidLog) as error:
        verify([])
    assert error.value.index == 0
